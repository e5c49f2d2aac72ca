//! What the grader finds wrong in an answer, and the plain words for it.

use super::{Answer, Context, relation};
use crate::gametree;
use crate::instance::Item;
use crate::reason::{Phrase, Reason};

/// A difference between a student's answer to one field and the key, found
/// by the grader; the kind says why it is one ([`KindDef::teach`]).
#[derive(Clone, Copy, Debug)]
pub enum Mistake<'a> {
    /// A listed item the key does not list.
    Extra(Item),
    /// Items the key lists that the answer lacks (all of one field at once,
    /// so a kind can group them).
    Missed(&'a [Item]),
    /// An order that first differs from the key's at `pos` (0-based).
    Diverges {
        /// Where.
        pos: usize,
        /// The key's item there.
        key: Item,
        /// The student's.
        given: Item,
    },
    /// An order that stops `count` items early, after `last`.
    Short {
        /// How many are missing.
        count: usize,
        /// The last item given.
        last: Option<Item>,
    },
    /// An order that goes on after the search stops, from `given` on.
    Long {
        /// The first item past the key's end.
        given: Item,
    },
    /// A single item that is not the key's.
    WrongOne(Item),
    /// A list that holds exactly the key of its paired field `other`, whose
    /// answer holds exactly this field's key ([`Field::swaps_with`]).
    Swapped {
        /// The paired field.
        other: &'static str,
    },
    /// A single value that is not the key's.
    Number {
        /// The key's.
        key: crate::value::Value,
        /// The student's.
        given: crate::value::Value,
    },
    /// A table's entry for an item the key has, with another value.
    Value {
        /// The item.
        item: Item,
        /// The key's value (or bound).
        key: gametree::Bound,
        /// The student's.
        given: gametree::Bound,
    },
    /// A table's exact value (an expectation) for an item the key has, another.
    Fraction {
        /// The item.
        item: Item,
        /// The key's.
        key: crate::value::Ratio,
        /// The student's.
        given: crate::value::Ratio,
    },
    /// A label that names nothing in the figure.
    Unknown(&'a str),
}

/// The grader's plain wording of a mistake: what kinds without more to
/// teach say, and what the others fall back on.
pub fn plain(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let one = |r: Reason| vec![r];
    let table = matches!(
        ctx.key.answer(field),
        Some(Answer::Values(_) | Answer::Bounds(_) | Answer::Fractions(_))
    );
    match mistake {
        // A table's row for a node the key has no row for.
        Mistake::Extra(item) if table => {
            one(Reason::new(Phrase::NodeExtra).with("node", ctx.name(item)))
        }
        Mistake::Extra(item) => one(Reason::new(Phrase::ExtraHidden).with("node", ctx.name(item))),
        Mistake::Value { item, key, given } => one(node_value_reason(ctx, item, key, given)),
        Mistake::Fraction { item, key, given } => one(Reason::new(Phrase::NodeValueWrongPlain)
            .with("node", ctx.name(item))
            .with("key", key.to_string())
            .with("given", given.as_written())),
        Mistake::Number { key, given } => one(Reason::new(Phrase::ValueWrong)
            .with("key", key.to_string())
            .with("given", given.to_string())),
        Mistake::Missed(_) if hide => one(Reason::new(Phrase::MissingHidden)),
        Mistake::Missed(items) => items
            .iter()
            .map(|&i| Reason::new(Phrase::NodeMissing).with("node", ctx.name(i)))
            .collect(),
        Mistake::Diverges { pos, key, given } => one(Reason::new(Phrase::OrderDiverges)
            .with("pos", (pos + 1).to_string())
            .with("given", ctx.name(given))
            .with("key", ctx.name(key))),
        Mistake::Short { count, last } => one(Reason::new(Phrase::OrderShort)
            .with("count", count.to_string())
            .with("last", last.map(|l| ctx.name(l)).unwrap_or_default())),
        Mistake::Long { given } => {
            one(Reason::new(Phrase::OrderLong).with("given", ctx.name(given)))
        }
        Mistake::WrongOne(given) => one(Reason::new(Phrase::LabelWrong)
            .with(
                "key",
                ctx.key
                    .answer(field)
                    .map(|a| a.to_text(ctx.model))
                    .unwrap_or_default(),
            )
            .with("given", ctx.name(given))),
        Mistake::Unknown(label) => one(ctx.model.unknown(label)),
        Mistake::Swapped { other } => one(Reason::new(Phrase::ListsSwapped).with("other", other)),
    }
}

/// Why a node's value is wrong: the rule that gives the key's value.
fn node_value_reason(
    ctx: &Context<'_>,
    item: Item,
    key: gametree::Bound,
    given: gametree::Bound,
) -> Reason {
    let (Some(t), Item::Node(n)) = (ctx.model.tree(), item) else {
        return Reason::new(Phrase::ValueWrong)
            .with("key", relation(key))
            .with("given", relation(given));
    };
    let id = gametree::NodeId(n);
    let label = t.label(id).into_owned();
    // The tighter bound the children give, where fail-hard backs up the bound in force.
    let tight = ctx
        .key
        .alpha_beta()
        .and_then(|ab| ab.widened.iter().find(|(w, _)| *w == id))
        .map(|&(_, tight)| tight);
    if tight == Some(given) {
        return Reason::new(Phrase::NodeValueBacked)
            .with("node", label)
            .with("given", relation(given))
            .with("key", relation(key));
    }
    let player = t.player(id);
    let children: Vec<String> = t.children(id).map(|c| t.label(c).into_owned()).collect();
    let explain = match key {
        gametree::Bound::Exact(v) => format!(
            "{}({}) = {v}",
            if player == gametree::Player::Max {
                "max"
            } else {
                "min"
            },
            children.join(", ")
        ),
        other => format!("{label} {}", relation(other)),
    };
    Reason::new(Phrase::NodeValueWrong)
        .with("node", label)
        .with("player", player.name())
        .with("explain", explain)
        .with("given", relation(given))
}
