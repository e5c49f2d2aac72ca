//! Grading answer files against the keys of a class set.

pub mod batch;
pub mod export;
pub mod form;
pub mod gradescope;
pub mod handed;
pub mod items;
pub mod key;
pub mod lms;
pub mod overrides;
pub mod recover;
pub mod report;
pub use crate::scoring as rules;
pub mod score;
pub mod submission;
