//! The concrete games of the textbooks.

pub mod grundy;
