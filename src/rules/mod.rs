//! The pure domain core: one module per rule system over a shared dice and probability core.
//! Nothing here imports leptos, web-sys, gloo or wasm-bindgen; all of it runs in host tests.

pub mod dice;
pub mod heimr;
pub mod symbaroum;
