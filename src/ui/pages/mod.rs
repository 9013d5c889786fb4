pub mod characters;
pub mod combat;
pub mod not_found;
pub mod roller;
pub mod settings;
