//! All integration tests, one crate (one link): a module per concern.

mod andor_oracle;
mod cli;
mod common;
mod gametree_oracle;
mod games;
mod golden;
mod grading;
mod render;
mod sets;
mod textbook;
