//! Rollsheet: phone-first character sheets, exact dice odds and combat for tabletop RPGs.
//!
//! `rules` is the pure domain core, `storage` owns what is stored, `ui` is the thin Leptos layer.

pub mod rules;
pub mod storage;
pub mod ui;
