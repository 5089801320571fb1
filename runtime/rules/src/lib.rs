pub mod dice;
pub mod geom;
