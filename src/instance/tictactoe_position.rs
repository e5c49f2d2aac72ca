//! Tic-tac-toe positions, searched with the open-lines evaluation.

use super::{FamilyDef, Generator, Instance, Model, Params};
use crate::draw::tictactoe_board;
use crate::games::tictactoe::{self, TicTacToe};
use crate::gametree;
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader};

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "tictactoe",
    key_name: "tictactoe",
    noun: "a tic-tac-toe position",
    param_keys: tictactoe::PARAM_KEYS,
    read_params: |r, t, _| Ok(Params::new(tictactoe::read_params(r, t)?)),
    read,
    forms: &[],
    about: |i, lang| {
        let g = this(i);
        lang.fill(
            "solve.about_tictactoe",
            &[
                ("board", &g.board.to_string()),
                ("max", &g.max.letter().to_string()),
                ("to_move", &g.to_move().letter().to_string()),
            ],
        )
    },
    document: |i| this(i).document(),
    model: |i| Model::TicTacToe(this(i).lookahead()),
    sheet_figure: |i, _| {
        let g = this(i);
        (tictactoe_board(&g.board), g.to_move().letter().to_string())
    },
    figure_nodes: |_| None,
    // e(P) counts open lines: at most the board's 8.
    largest_number: |_| 8,
    depth: |_| None,
};

fn this(instance: &Instance) -> &TicTacToe {
    match instance {
        Instance::TicTacToe(g) => g,
        _ => unreachable!("the tic-tac-toe family holds tic-tac-toe positions"),
    }
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let table = reader.table(doc, tictactoe::KEYS, "")?;
    tictactoe::read(reader, &table).map(Instance::TicTacToe)
}

impl Generator for tictactoe::Params {
    fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, GenerateError> {
        let mut p = self.clone();
        p.search.alpha_beta = alpha_beta;
        Ok(Instance::TicTacToe(tictactoe::generate(&p, seed)?))
    }

    fn page_size(&self) -> Option<(u64, &'static str)> {
        Some((
            self.max_nodes(),
            "start from more marks (`marks = \"3..4\"`), or lower depth",
        ))
    }
}
