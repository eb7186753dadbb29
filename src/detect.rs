//! chardetng, fed a bounded prefix. SKELETON.
