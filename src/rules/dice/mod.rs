//! The shared dice core: randomness sources, notation, exact distributions and rolls.
//! Pure Rust: no web imports, tested on the host.

pub mod dist;
pub mod fairness;
pub mod notation;
pub mod roll;
pub mod source;

pub use dist::{Bin, Distribution, TooLarge};
pub use notation::{
    parse, Expr, Keep, ParseError, ParseErrorKind, Pool, Sign, Term, TermKind, EXPLODE_CAP,
};
pub use roll::{roll, DieRoll, RollOutcome, TermRoll};
pub use source::{CryptoSource, DiceSource, EntropyError, ScriptedSource, SeededSource};
