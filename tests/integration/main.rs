//! All integration tests, one crate (one link): a module per concern.

mod andor_oracle;
mod ao_star_procedure;
mod big_inputs;
mod budget_tree;
mod catalogue;
mod cli;
mod common;
mod cs188_suite;
mod figures;
mod games;
mod gametree_oracle;
mod golden;
mod grading;
mod install;
mod interrupted;
mod layers;
mod manifest;
mod moodle;
mod never_panic;
mod procedures;
mod render;
mod report;
mod sets;
mod textbook;
mod variant_ids;
