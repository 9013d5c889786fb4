//! Stateful property tests (issue 27): random sequences of the edits a player can make, per
//! system, from every fixture and from generated sheets. After every step the sheet passes its
//! importer, its backup and share link bring it back, a reload quarantines nothing and a
//! two-tab merge with the step before succeeds. `SEQ_CASES` sets the number of sequences per
//! system (1 000 here; `scripts/fuzz-edits.sh` runs 10⁵), `PROPTEST_RNG_SEED` replays one.

mod aura;
mod common;
mod economy;
mod encounters;
mod heimr;
mod odds;
mod symbaroum;
mod tempo;
mod vogt;
