//! Rollsheet: phone-first character sheets, exact dice odds and combat for tabletop RPGs.

pub mod rules;
