//! The pure domain core: one module per rule system over a shared dice and probability core.
//! Nothing here depends on the browser or the UI framework; all of it runs in host tests.

pub mod aura;
pub mod dice;
pub mod edit;
pub mod encounter;
pub mod heimr;
pub mod order;
pub mod referee;
pub mod symbaroum;
pub mod tempo;
pub mod vogt;
