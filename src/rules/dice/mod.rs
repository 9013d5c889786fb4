//! The shared dice core: randomness sources, notation, exact distributions and rolls.
//! Pure Rust: no web imports, tested on the host.

pub mod chance;
pub mod dist;
pub mod edge;
pub mod fairness;
pub mod notation;
pub mod roll;
pub mod source;

pub use chance::Chance;
pub use dist::{Bin, Distribution, TooLarge};
pub use edge::{best_of_two, map_values, Edge};
pub use notation::{
    parse, Expr, Keep, ParseError, ParseErrorKind, Pool, Sign, Term, TermKind, EXPLODE_CAP,
    MAX_CONSTANT, MAX_DICE, MAX_SIDES, MAX_TERMS, MAX_TOTAL_DICE,
};
pub use roll::{roll, DieRoll, RollOutcome, TermRoll};
pub use source::{CryptoSource, DiceSource, EntropyError, ScriptedSource, SeededSource};
