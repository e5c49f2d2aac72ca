//! All integration tests, one crate (one link): a module per concern.

mod andor_oracle;
mod ao_star_procedure;
mod big_inputs;
mod budget_tree;
// Its cases make FIFOs, sockets and symbolic links, and nest folders with
// rustix (a Linux-only dependency): Linux only.
#[cfg(target_os = "linux")]
mod catalogue;
mod chance_kind;
mod chance_oracle;
mod cli;
mod common;
mod cs188_suite;
mod docx;
mod examples;
mod figures;
mod games;
mod gametree_oracle;
mod golden;
mod grading;
mod install;
mod items;
// Kills, signals, ulimit and /proc: Unix only.
#[cfg(unix)]
mod interrupted;
mod layers;
mod lms;
mod manifest;
mod moodle;
mod never_panic;
mod procedures;
mod render;
mod report;
mod sets;
mod summary;
mod textbook;
mod variant_ids;
