//! The concrete games of the textbooks.

pub mod budget_tree;
pub mod grundy;
pub mod lookahead;
pub mod othello;
pub mod tictactoe;

/// `b2`: the column letter (`a` on the left), then the row number (`1` at the
/// top), of a square on a board `size` squares wide. Columns past `z` are
/// `aa`, `ab`, …; a width of 0 is read as 1.
pub fn square_name(size: usize, square: usize) -> String {
    let size = size.max(1);
    format!("{}{}", column_name(square % size), square / size + 1)
}

/// The letters of column `col` (0-based): `a`…`z`, then `aa`, `ab`, ….
pub fn column_name(col: usize) -> String {
    crate::gametree::tree::textbook_label(col).to_ascii_lowercase()
}

/// The square named `b2` (case-insensitive, trimmed) on a board `size` squares wide.
pub fn parse_square(size: usize, name: &str) -> Option<usize> {
    let mut chars = name.trim().chars();
    let col = chars.next()?.to_ascii_lowercase() as usize;
    let row = chars.next()?.to_digit(10)? as usize;
    let col = col.checked_sub('a' as usize).filter(|&c| c < size)?;
    (chars.next().is_none() && (1..=size).contains(&row)).then(|| (row - 1) * size + col)
}
