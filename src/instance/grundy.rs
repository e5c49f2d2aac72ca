//! Grundy's game from one pile of coins.

use super::{FamilyDef, Generator, Instance, Model, Params};
use crate::document::Table;
use crate::draw::grundy_page_figure;
use crate::games::grundy;
use crate::gametree::{self, Player};
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader};

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "grundy",
    key_name: "grundy",
    noun: "a pile of coins for Grundy's game",
    param_keys: grundy::PARAM_KEYS,
    read_params: |r, t, _| Ok(Params::new(grundy::read_params(r, t)?)),
    read,
    forms: &[],
    about: |i, lang| {
        let (coins, first) = this(i);
        lang.fill(
            if coins == 1 {
                "solve.about_grundy_one"
            } else {
                "solve.about_grundy"
            },
            &[("coins", &coins.to_string()), ("first", first.name())],
        )
    },
    document: |i| {
        let (coins, first) = this(i);
        Table::new()
            .with("kind", "grundy")
            .with("coins", coins)
            .with("first", first.name().to_lowercase())
    },
    model: |i| {
        let (coins, first) = this(i);
        Model::Grundy(grundy::solve(coins, first))
    },
    sheet_figure: |_, model| {
        let game = model.grundy().expect("Grundy's model is its game graph");
        (grundy_page_figure(game, None), game.states[0].name())
    },
    figure_nodes: |_| None,
    // Its answers are states and players, not numbers.
    largest_number: |_| 0,
    depth: |_| None,
};

fn this(instance: &Instance) -> (u32, Player) {
    match instance {
        Instance::Grundy { coins, first } => (*coins, *first),
        _ => unreachable!("the Grundy family holds piles of coins"),
    }
}

impl Generator for grundy::Params {
    fn generate(&self, seed: u64, _: gametree::Options) -> Result<Instance, GenerateError> {
        let (coins, first) = grundy::Params::generate(self, seed);
        Ok(Instance::Grundy { coins, first })
    }
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let source = reader.source;
    let table = reader.table(doc, &["kind", "title", "coins", "first"], "")?;
    let coins_doc = table.require(source, "coins", "coins = 7")?;
    let coins = reader.int(coins_doc, "coins = 7")?;
    let max = grundy::MAX_COINS;
    if !(1..=i64::from(max)).contains(&coins) {
        return Err(source.error(
            coins_doc,
            format!("{coins} coins: an instance file takes 1 to {max}"),
            format!(
                "give 1 to {max} coins: `solve` solves any of them; a problem set's exercise takes 3 to {}",
                grundy::MAX_EXERCISE_COINS
            ),
        ));
    }
    let first = match table.get("first") {
        None => Player::Max,
        Some(d) => gametree::file::read_player(reader, d)?,
    };
    Ok(Instance::Grundy {
        coins: coins as u32,
        first,
    })
}
