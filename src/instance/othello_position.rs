//! Othello positions, searched with a weighted evaluation to a horizon.

use super::{FamilyDef, Form, Generator, Instance, Model, Params};
use crate::draw::othello_board;
use crate::games::lookahead::Horizon;
use crate::games::othello::{self, Othello, Side};
use crate::gametree;
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader};

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "othello",
    key_name: "othello",
    noun: "an Othello position",
    param_keys: othello::PARAM_KEYS,
    read_params: |r, t, budgets| Ok(Params::new(othello::read_params(r, t, budgets)?)),
    read,
    forms: &[Form {
        name: "board",
        extension: "",
        marker: None,
        read: None,
        write: |i, _| {
            let g = this(i);
            let side = match g.to_move {
                Side::Black => 'X',
                Side::White => 'O',
            };
            Ok(format!("{} {side}\n", g.board.line()))
        },
    }],
    about: |i, lang| {
        let g = this(i);
        lang.fill(
            "solve.about_othello",
            &[
                ("board", &g.board.to_string()),
                ("to_move", &g.to_move.letter().to_string()),
            ],
        )
    },
    document: |i| this(i).document(),
    model: |i| Model::Othello(this(i).lookahead()),
    sheet_figure: |i, _| {
        let g = this(i);
        (othello_board(g, &[]), g.to_move.letter().to_string())
    },
    figure_nodes: |_| None,
    // e(P) within the weights' infinity and a disc difference.
    largest_number: |i| this(i).weights.inf().unsigned_abs() + 64,
    depth: |i| match this(i).horizon {
        Horizon::Depth(n) | Horizon::Budget(n) | Horizon::Deepening(n) => Some(u64::from(n)),
    },
};

fn this(instance: &Instance) -> &Othello {
    match instance {
        Instance::Othello(g) => g,
        _ => unreachable!("the Othello family holds Othello positions"),
    }
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let table = reader.table(doc, othello::KEYS, "")?;
    othello::read(reader, &table).map(|g| Instance::Othello(Box::new(g)))
}

impl Generator for othello::Params {
    fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, GenerateError> {
        let mut p = self.clone();
        p.search.alpha_beta = alpha_beta;
        Ok(Instance::Othello(Box::new(othello::generate(&p, seed)?)))
    }
}
