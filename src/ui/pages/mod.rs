pub mod character;
pub mod characters;
pub mod combat;
pub mod crash;
pub mod encounter;
pub mod not_found;
pub mod roller;
pub mod settings;
