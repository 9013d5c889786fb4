//! The sheet kit: every system's sheet is composed of these few components.
//!
//! They take plain data, `Signal`s, `Callback`s and `fn` pointers, never generic closures, so
//! each is compiled once for the whole app: that is what keeps the download small as systems
//! are added. A system's view (src/ui/systems/<system>/) describes its sections with them.

pub mod chips;
pub mod counter;
pub mod derived;
pub mod fields;
pub mod form;
pub mod handlers;
pub mod modes;
pub mod offers;
pub mod roll_row;
pub mod roll_sheet;
pub mod section;

pub use chips::TextList;
pub use counter::Counter;
pub use derived::Derived;
pub use fields::{Check, Choice, Stepper};
pub use form::{draw, fixed, fold, form, numbered_options, Field};
pub use handlers::{
    checked, choices, dist, flag, num, reactive, set_to, tap, target, text, typed, when,
};
pub use modes::{Mode, ModeTabs};
pub use offers::offers;
pub use roll_row::{Fig, RollRow};
pub use roll_sheet::RollSheet;
pub use section::Section;
