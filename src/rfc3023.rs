//! The strict RFC 3023 pass. SKELETON.
