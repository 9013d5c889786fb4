//! What a Tempo character and its fights share (see `rules::encounter::shared`):
//!
//! | value | sheet | fight | flow |
//! |---|---|---|---|
//! | Health | health | Health (lower: damage) | both |
//!
//! Everything else a Tempo fight tracks lasts one exchange or one fight: action points and
//! their debt, the status (on guard, off balance …), aiming, being disarmed.

use super::{Edit, TempoSheet};
use crate::rules::edit::Edits;
use crate::rules::encounter::shared::{hp_value, Linked, Shared, Value};

impl Linked for TempoSheet {
    const SHARED: &'static [Shared<Self>] = &[hp_value(
        "Health",
        |s| Value::Num(s.health),
        |s, v| {
            let _ = s.apply(Edit::Health(v.num()));
        },
    )];
}
