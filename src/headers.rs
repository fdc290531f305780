//! Reading providers' rate-limit headers (being written).
