//! treequiz: seeded exercises on game trees and AND/OR graphs, with reference
//! solvers whose traces explain every answer.
//!
//! Data flows one way: an instance file or a generator gives a model
//! ([`gametree::Tree`], [`andor::Graph`]); pure solvers turn it into traced
//! results ([`gametree::minimax`], [`gametree::alpha_beta`], [`andor::solvable`],
//! [`andor::optimal`], [`andor::ao_star`]); only the command line touches files.

#![warn(missing_docs)]

pub mod andor;
pub mod chance;
pub mod class_set;
pub mod document;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod docx;
pub mod draw;
pub mod exercise;
pub mod fair;
pub mod games;
pub mod gametree;
pub mod generate;
pub mod grade;
pub mod input;
pub mod instance;
pub mod lang;
pub mod manifest;
pub mod moodle;
pub mod output;
pub mod parallel;
pub mod problem_set;
pub mod reason;
pub mod render;
pub mod rng;
pub mod roster;
pub mod scoring;
pub mod value;
pub mod view;
