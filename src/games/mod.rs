//! The concrete games of the textbooks.

pub mod grundy;
pub mod lookahead;
pub mod othello;
pub mod tictactoe;
