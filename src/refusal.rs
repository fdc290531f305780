//! Classifying refusals by body and headers (being written).
