//! Reasons as data: why a point was lost (or what a cut was), with its
//! arguments, in no language yet. They are rendered through a string table at
//! the very end, so the class summary can group one mistake made by many
//! students whatever the language, and a teacher's own table rewords them all.

use serde::Serialize;

use crate::lang::Lang;

macro_rules! phrases {
    ($($(#[$doc:meta])* $variant:ident = $key:literal,)*) => {
        /// Every sentence a reason can be: one string-table key each.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Phrase {
            $($(#[$doc])* $variant,)*
            /// A kind's own sentence, by its string-table key
            /// (`grade.path_root`): a kind words what only it teaches in its
            /// own file and its strings, with no line here.
            /// `exercise::tests::every_kind_teaches_in_strings_it_has`
            /// holds its strings.
            Own(&'static str),
        }

        /// As its variant's name; a kind's own phrase as its key.
        impl Serialize for Phrase {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(Phrase::$variant => s.serialize_str(stringify!($variant)),)*
                    Phrase::Own(key) => s.serialize_str(key),
                }
            }
        }

        impl Phrase {
            /// Every shared phrase, for the test that each has a string in
            /// every language (a kind's [`Phrase::Own`] are its own).
            pub const ALL: &'static [Phrase] = &[$(Phrase::$variant,)*];

            /// Its key in the string tables.
            pub fn key(self) -> &'static str {
                match self {
                    $(Phrase::$variant => $key,)*
                    Phrase::Own(key) => key,
                }
            }
        }
    };
}

phrases! {
    /// An answer in a form that cannot be read.
    Unreadable = "grade.unreadable_value",
    /// A label that names no node.
    UnknownLabel = "grade.unknown_label",
    /// A game's move that was not searched.
    UnknownMove = "grade.unknown_move",
    /// Not a state or move of Grundy's game.
    UnknownState = "grade.unknown_state",
    /// A split Grundy's rule does not allow.
    NotASplit = "grade.not_a_split",
    /// Grundy's winner is MAX or MIN.
    WriteMaxOrMin = "grade.write_max_or_min",
    /// A wrong value.
    ValueWrong = "grade.value_wrong",
    /// A wrong cost.
    CostWrong = "grade.cost_wrong",
    /// A wrong label.
    LabelWrong = "grade.label_wrong",
    /// A node's wrong backed-up value or bound.
    NodeValueWrong = "grade.node_value_wrong",
    /// A node's tight bound where fail-hard backs up the bound in force.
    NodeValueBacked = "grade.node_value_backed",
    /// A node's wrong exact value, without a rule to say (the plain wording).
    NodeValueWrongPlain = "grade.node_value_wrong_plain",
    /// A chance node's wrong value: the probability-weighted mean.
    ChanceValueWrong = "grade.chance_value_wrong",
    /// A wrong best move of a chance tree: the root's children's values.
    BestMoveByValues = "grade.best_move_by_values",
    /// A node of the key that the answer lacks.
    NodeMissing = "grade.node_missing",
    /// A node that is no examined inner node.
    NodeExtra = "grade.node_extra",
    /// A position a node budget expands: its budget, and its parent's divided.
    BudgetExpanded = "grade.budget_expanded",
    /// A position a node budget evaluates: its budget of 0, its parent's divided.
    BudgetEvaluated = "grade.budget_evaluated",
    /// A wrong budget: the right one, its parent's divided.
    BudgetWrong = "grade.budget_wrong",
    /// A completed depth deeper than the iteration the budget stops in.
    DeepeningStops = "grade.deepening_stops",
    /// A completed depth deeper than the iteration that reached every leaf.
    DeepeningExhausted = "grade.deepening_exhausted",
    /// A completed depth shallower than the deepest iteration that completes.
    DeepeningCompletes = "grade.deepening_completes",
    /// A position evaluated because the game is over there.
    BudgetGameOver = "grade.budget_game_over",
    /// A leaf of a budgeted game tree: evaluated whatever its budget.
    BudgetLeaf = "grade.budget_leaf",
    /// A node of a budgeted game tree below one the search evaluates.
    NotSearched = "grade.not_searched",
    /// Items missing from a list, and why they belong in it.
    MissedBecause = "grade.missed_because",
    /// The root listed where only the nodes below it are asked.
    BudgetRoot = "grade.budget_root",
    /// A pruned node that the search examines.
    PrunedExamined = "grade.pruned_examined",
    /// A node inside a pruned branch, listed as a root.
    PrunedBelow = "grade.pruned_below",
    /// A pruned branch the answer lacks.
    PrunedMissed = "grade.pruned_missed",
    /// Several pruned branches of one cut the answer lacks.
    PrunedMissedMany = "grade.pruned_missed_many",
    /// A cut that does not happen.
    CutWrong = "grade.cut_wrong",
    /// A cut of the other sign, listed with this sign's.
    CutSwapped = "grade.cut_swapped",
    /// Two cut lists, each holding exactly the other's cuts.
    CutsSwapped = "grade.cuts_swapped",
    /// Two paired lists, each holding exactly the other's answer.
    ListsSwapped = "grade.lists_swapped",
    /// How many items were right, swapped and wrong.
    ItemsSwapped = "grade.items_swapped",
    /// Items listed where the key lists none.
    ItemsNone = "grade.items_none",
    /// A cut the answer lacks.
    CutMissed = "grade.cut_missed",
    /// An order that leaves the search.
    OrderDiverges = "grade.order_diverges",
    /// An order that stops early.
    OrderShort = "grade.order_short",
    /// AO*'s expansions that stop early.
    OrderShortExpanded = "grade.order_short_expanded",
    /// An order that goes on after the search stops.
    OrderLong = "grade.order_long",
    /// An item that does not belong (the key hidden).
    ExtraHidden = "grade.extra_hidden",
    /// Items missing (the key hidden).
    MissingHidden = "grade.missing_hidden",
    /// AO* expands another tip.
    ExpandedDiverges = "grade.expanded_diverges",
    /// Why AO* expands the start first.
    ExpandedWhyFirst = "grade.expanded_why_first",
    /// Why AO* expands a tip.
    ExpandedWhy = "grade.expanded_why",
    /// A connector outside the solution graph.
    ConnectorWrong = "grade.connector_wrong",
    /// Not a connector of the graph.
    ConnectorUnknown = "grade.connector_unknown",
    /// A connector of the solution graph the answer lacks.
    ConnectorMissed = "grade.connector_missed",
    /// An unsolvable node listed as solvable.
    SolvableWrong = "grade.solvable_wrong",
    /// A solvable node listed as unsolvable.
    UnsolvableWrong = "grade.unsolvable_wrong",
    /// A goal is solvable.
    SolvableGoal = "grade.solvable_goal",
    /// Solvable through a connector.
    SolvableVia = "grade.solvable_via",
    /// Who wins a state, and why.
    StateWon = "grade.state_won",
    /// The player to move cannot move.
    WhyNoMove = "grade.why_no_move",
    /// The player to move has a winning move.
    WhyCanMove = "grade.why_can_move",
    /// Every move loses.
    WhyEveryMove = "grade.why_every_move",
    /// A move of the loser, not the winner.
    MoveNotWinner = "grade.move_not_winner",
    /// A question of the file that the variant lacks.
    UnknownQuestion = "grade.unknown_question",
    /// A field the question lacks.
    UnknownField = "grade.unknown_field",
    /// A question missing from the file.
    QuestionMissing = "grade.question_missing",
    /// The sheet has no checksum line.
    ChecksumMissing = "grade.checksum_missing",
    /// How many items of a list were right and wrong.
    Items = "grade.items",
    /// A node whose value cannot be read.
    NodeUnreadable = "grade.node_unreadable",
    /// A field left blank (the summary's line for it).
    LeftBlank = "grade.left_blank",
    /// A syntax slip: where it is, what it is, how to fix it.
    Syntax = "grade.syntax",
    /// A slip counted as its rewrite: where, what, what was read, its cost.
    SlipRead = "grade.slip_read",
    /// A counted slip that costs nothing.
    SlipFree = "grade.slip_free",
    /// A counted slip that costs points.
    SlipCost = "grade.slip_cost",
    /// A slip as `check` sees it under a penalty: a share of what the
    /// answer earns, which it cannot know without the key.
    SlipCostUpTo = "check.slip_cost_up_to",
    /// A game's move that is not written with the board's squares (`check`,
    /// which knows the board but not the moves searched).
    NotSquares = "check.not_squares",
    /// A slip in a question's field, as a problem with the file.
    SlipInField = "grade.slip_in_field",
    /// A slip in a question outside its fields, as a problem with the file.
    SlipInQuestion = "grade.slip_in_question",
    /// A section whose header cannot be read (the first field's reason).
    SectionLost = "grade.section_lost",
    /// A section whose header cannot be read (the other fields' reason).
    SectionLostSame = "grade.section_lost_same",
    /// A full-width or Chinese punctuation mark where TOML needs ASCII.
    SlipWide = "grade.slip_wide",
    /// Answers without quotes.
    SlipUnquoted = "grade.slip_unquoted",
    /// A string its line leaves open.
    SlipUnclosedString = "grade.slip_unclosed_string",
    /// A list without its `]`.
    SlipUnclosedList = "grade.slip_unclosed_list",
    /// A key and a value without `=`.
    SlipNoEquals = "grade.slip_no_equals",
    /// A key or section written twice.
    SlipDuplicate = "grade.slip_duplicate",
    /// Another syntax error, with the parser's message.
    SlipOther = "grade.slip_other",
    /// Type the ASCII character instead.
    FixWide = "grade.fix_wide",
    /// Type the ASCII character instead, and the rewritten line.
    FixWideAs = "grade.fix_wide_as",
    /// Put the answers in quotes, and the rewritten line.
    FixQuotes = "grade.fix_quotes",
    /// Close the string, and the rewritten line.
    FixCloseString = "grade.fix_close_string",
    /// Close the list, and the rewritten line.
    FixCloseList = "grade.fix_close_list",
    /// Use `=`, and the rewritten line.
    FixEquals = "grade.fix_equals",
    /// The rewritten line.
    FixWriteAs = "grade.fix_write_as",
    /// How the field is written.
    FixExample = "grade.fix_example",
    /// Check the punctuation near the mark.
    FixCheck = "grade.fix_check",
    /// Keep one of the two.
    FixKeepOne = "grade.fix_keep_one",
    /// A cut, as the key states it.
    Cut = "note.cut",
    /// A deep cut, as the key states it.
    DeepCut = "note.deep_cut",
    /// A cut caused by the initial window, as the key states it.
    WindowCut = "note.window_cut",
}

/// One argument of a reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Arg {
    /// Text the same in every language (a label, a number, a bound).
    Text(String),
    /// A string of the table (`grade.what_value`, a player's name).
    Term(&'static str),
    /// Another reason, rendered in place (a cut quoted by a reason).
    Reason(Box<Reason>),
}

/// A sentence of a given phrase with its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reason {
    /// Which sentence.
    pub phrase: Phrase,
    /// Its `{name}` arguments.
    pub args: Vec<(&'static str, Arg)>,
}

impl Phrase {
    /// Its key in the summary's `[mistake]` table (`grade.cut_missed` →
    /// `mistake.cut_missed`).
    pub fn mistake_key(self) -> String {
        let key = self.key();
        format!(
            "mistake.{}",
            key.split_once('.').map_or(key, |(_, name)| name)
        )
    }

    /// Whether a label the answer's model cannot resolve still names a node
    /// of the figure (one the search never reaches): a mistake, not a
    /// problem with the file.
    pub fn names_a_node(self) -> bool {
        self == Phrase::NotSearched
    }
}

impl Reason {
    /// A reason with no arguments.
    pub fn new(phrase: Phrase) -> Reason {
        Reason {
            phrase,
            args: Vec::new(),
        }
    }

    /// Adds a text argument.
    pub fn with(mut self, name: &'static str, value: impl Into<String>) -> Reason {
        self.args.push((name, Arg::Text(value.into())));
        self
    }

    /// Adds an argument that is a string of the table.
    pub fn term(mut self, name: &'static str, key: &'static str) -> Reason {
        self.args.push((name, Arg::Term(key)));
        self
    }

    /// Adds an argument that is another reason.
    pub fn nested(mut self, name: &'static str, reason: Reason) -> Reason {
        self.args.push((name, Arg::Reason(Box::new(reason))));
        self
    }

    /// The sentence in `lang`; with `hide`, the phrase's `_hidden` wording
    /// where the table has one (it gives no part of the key away).
    pub fn render(&self, lang: &Lang, hide: bool) -> String {
        let key = self.phrase.key();
        let hidden = format!("{key}_hidden");
        let chosen = if hide && lang.has(&hidden) {
            hidden.as_str()
        } else {
            key
        };
        self.fill(lang, chosen, hide)
    }

    /// The sentence as the teacher's summary words it: what the student did
    /// (`missed the β-cut at G`), not what the key says, from the table's
    /// `mistake.*` wording where the phrase has one (those that state the
    /// key do); else the feedback's sentence, which already says what is wrong.
    pub fn render_mistake(&self, lang: &Lang) -> String {
        let key = self.phrase.mistake_key();
        if lang.has(&key) {
            self.fill(lang, &key, false)
        } else {
            self.render(lang, false)
        }
    }

    fn fill(&self, lang: &Lang, chosen: &str, hide: bool) -> String {
        let values: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| {
                let text = match arg {
                    Arg::Text(t) => t.clone(),
                    Arg::Term(k) => lang.get(k).to_string(),
                    Arg::Reason(r) => r.render(lang, hide),
                };
                (*name, text)
            })
            .collect();
        let borrowed: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        lang.fill(chosen, &borrowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_has_a_string_in_every_builtin_language() {
        for code in crate::lang::BUILTIN.iter().map(|b| b.code) {
            let lang = Lang::builtin(code).unwrap();
            for p in Phrase::ALL {
                assert!(lang.has(p.key()), "{code} lacks {}", p.key());
            }
        }
    }

    /// `{name}`s of a string.
    fn placeholders(text: &str) -> std::collections::BTreeSet<&str> {
        text.split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .collect()
    }

    #[test]
    fn every_mistake_wording_is_a_phrases_and_fills_from_its_arguments() {
        for code in crate::lang::BUILTIN.iter().map(|b| b.code) {
            let lang = Lang::builtin(code).unwrap();
            for key in lang.keys().filter(|k| k.starts_with("mistake.")) {
                // A shared phrase's, or a kind's own (`Phrase::Own`): the
                // feedback sentence `grade.<name>` it rewords.
                let feedback = format!("grade.{}", &key["mistake.".len()..]);
                assert!(
                    lang.has(&feedback),
                    "{code}: {key} is no phrase's (no {feedback})"
                );
                // The arguments its feedback wordings (shown or hidden key) use…
                let hidden = format!("{feedback}_hidden");
                let mut args = placeholders(lang.get(&feedback));
                if lang.has(&hidden) {
                    args.extend(placeholders(lang.get(&hidden)));
                }
                // …and the cut's node, which the key's sentence names inside the cut.
                if feedback == Phrase::CutMissed.key() {
                    args.insert("node");
                }
                let wanted = placeholders(lang.get(key));
                assert!(
                    wanted.is_subset(&args),
                    "{code}: {key} {wanted:?} ⊄ {args:?}"
                );
            }
        }
        let zh = Lang::builtin("zh").unwrap();
        let missed = Reason::new(Phrase::CutMissed)
            .with("sign", "β")
            .with("node", "G")
            .nested("cut", Reason::new(Phrase::NodeMissing).with("node", "G"));
        assert_eq!(missed.render_mistake(&zh), "漏了 G 处的 β 剪枝");
        // A phrase without a mistake wording keeps the feedback's.
        let r = Reason::new(Phrase::NodeUnreadable)
            .with("node", "G")
            .with("why", "?");
        assert_eq!(r.render_mistake(&zh), r.render(&zh, false));
    }

    #[test]
    fn hidden_wording_is_chosen_only_when_the_key_is_hidden() {
        let en = Lang::builtin("en").unwrap();
        let r = Reason::new(Phrase::ValueWrong)
            .with("key", "3")
            .with("given", "5");
        assert_eq!(r.render(&en, false), "the value is 3, not 5");
        assert_eq!(r.render(&en, true), "5 is not right");
    }
}
