//! Grading answer files against the keys of a class set.

pub mod batch;
pub mod key;
pub mod report;
pub mod rules;
pub mod score;
pub mod submission;
