//! The JSON contract of `feed-decoder --json`. SKELETON.
