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
    let (col, row) = (square % size, square / size + 1);
    // Built in place: a search names every move it generates (an Othello
    // lookahead, thousands of times per exercise drawn).
    if col < 26 && row < 10 {
        return String::from_utf8(vec![b'a' + col as u8, b'0' + row as u8]).expect("ASCII");
    }
    format!("{}{row}", column_name(col))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick path names every square as the letters-then-number rule
    /// does, and a board's square reads back as itself.
    #[test]
    fn square_names_follow_the_rule_and_read_back() {
        for size in 1..=30 {
            for square in 0..size * 12 {
                let name = square_name(size, square);
                let rule = format!("{}{}", column_name(square % size), square / size + 1);
                assert_eq!(name, rule, "size {size}, square {square}");
                // What a board's reader takes: one letter, one digit, on the board.
                if size <= 9 && square < size * size {
                    assert_eq!(parse_square(size, &name), Some(square), "{name}");
                }
            }
        }
        assert_eq!(
            [square_name(8, 0), square_name(8, 63), square_name(27, 26)],
            ["a1", "h8", "aa1"]
        );
    }
}
