//! The measured figures a design review cites, each a named constant: what
//! it is, and the claim of the reference run (claims.csv) it is read from.
//! A claim renamed in a study spec fails `every_figure_is_a_committed_claim`
//! instead of dropping the figure from every review in silence.

/// One measured figure: a sentence saying what it is, and its claim id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    pub what: &'static str,
    pub claim: &'static str,
}

pub const HLL_UP_TO_BILLIONS: Figure = Figure {
    what: "RSE of the Ertl estimate at every n from 10^6 to 10^10 (p = 14)",
    claim: "hll_up_to_billions",
};

pub const HLL_AT_2_64_ITSELF: Figure = Figure {
    what: "mean relative error of the Ertl estimate from 10^6 up to 2^64 (p = 14): the hash's distinct words run out",
    claim: "hll_at_2_64_itself",
};

pub const HLL_NAIVE_NONSENSE_SMALL: Figure = Figure {
    what: "mean relative error of the raw estimate at n = 1,000 (p = 14): why the small range switches",
    claim: "hll_naive_nonsense_small",
};

pub const HLL_LINEAR_COUNTING_BELOW_2_5M: Figure = Figure {
    what: "mean relative error of the linear-counting switch, every n from 1 to 10^7 (p = 14)",
    claim: "hll_linear_counting_below_2_5m",
};

pub const HLL_DEFLATED_ON_REDIS_LAYOUT: Figure = Figure {
    what: "estimate ÷ distinct items for items filtered on the public MurmurHash64A (Redis's layout)",
    claim: "hll_deflated_on_redis_layout",
};

pub const HLL_INFLATED_ON_REDIS_LAYOUT: Figure = Figure {
    what: "estimate ÷ distinct items for one constructed key per register (Redis's layout)",
    claim: "hll_inflated_on_redis_layout",
};

pub const HLL_KEYED_STAYS_HONEST: Figure = Figure {
    what: "estimate ÷ distinct items for the same attacks against a SipHash-1-3-keyed sketch",
    claim: "hll_keyed_stays_honest",
};

pub const ATTACKER_DECIDES_THE_FPR: Figure = Figure {
    what: "crafted queries that test positive, constant seed (mmh3 seed 0)",
    claim: "attacker_decides_the_fpr",
};

pub const RANDOM_SEED_MURMUR_TWINS: Figure = Figure {
    what: "members' twins that test positive, murmur3_x64_128 with a random seed",
    claim: "random_seed_murmur_twins",
};

pub const KEYED_FILTER_KEEPS_DESIGN_RATE: Figure = Figure {
    what: "honest FPR after the same pollution, SipHash-1-3 keyed",
    claim: "keyed_filter_keeps_design_rate",
};

pub const CM_UNBOUNDED_STREAM_U32: Figure = Figure {
    what: "underestimates with 4-byte counters once the stream passes 2^32",
    claim: "cm_unbounded_stream_u32",
};

pub const CM_EPS_N_WITH_PROBABILITY_DELTA: Figure = Figure {
    what: "share of 10^6 keys whose overshoot exceeds εN, every Zipf s (δ = e^−4)",
    claim: "cm_eps_n_with_probability_delta",
};

pub const CM_RARE_ITEMS_SWAMPED: Figure = Figure {
    what: "mean overshoot ÷ true count of keys counted 100–999 times in N = 10^7",
    claim: "cm_rare_items_swamped",
};

pub const CM_ROWS_FALL_EXPONENTIALLY_DOUBLE_D6: Figure = Figure {
    what: "share beyond εN ÷ (per-row share)^d at d = 6 with double-hashed rows: the floor rows sharing one hash put under e^−d",
    claim: "cm_rows_fall_exponentially_double_d6",
};

pub const COUNT_MIN_BOUND_UNDER_ATTACK: Figure = Figure {
    what: "share of never-inserted targets read past εN after the attacker's cover keys (public xxh3, seed 0)",
    claim: "count_min_bound_under_attack",
};

pub const COUNT_MIN_KEYED_RESISTS_COVER: Figure = Figure {
    what: "largest target estimate ÷ εN after the same attack on a SipHash-1-3-keyed sketch",
    claim: "count_min_keyed_resists_cover",
};

pub const NONCRYPTO_SEED_RECOVERABLE: Figure = Figure {
    what: "share of secret seeds recovered from one observed output (MurmurHash3_x86_32, MurmurHash64A, XXH64, XXH3-64)",
    claim: "noncrypto_seed_recoverable",
};

/// Every figure, for the check that each names a committed claim.
pub const ALL: &[Figure] = &[
    HLL_UP_TO_BILLIONS,
    HLL_AT_2_64_ITSELF,
    HLL_NAIVE_NONSENSE_SMALL,
    HLL_LINEAR_COUNTING_BELOW_2_5M,
    HLL_DEFLATED_ON_REDIS_LAYOUT,
    HLL_INFLATED_ON_REDIS_LAYOUT,
    HLL_KEYED_STAYS_HONEST,
    ATTACKER_DECIDES_THE_FPR,
    RANDOM_SEED_MURMUR_TWINS,
    KEYED_FILTER_KEEPS_DESIGN_RATE,
    CM_UNBOUNDED_STREAM_U32,
    CM_EPS_N_WITH_PROBABILITY_DELTA,
    CM_RARE_ITEMS_SWAMPED,
    CM_ROWS_FALL_EXPONENTIALLY_DOUBLE_D6,
    COUNT_MIN_BOUND_UNDER_ATTACK,
    COUNT_MIN_KEYED_RESISTS_COVER,
    NONCRYPTO_SEED_RECOVERABLE,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every figure reads a claim a committed study declares, and the
    /// committed reference run measured it.
    #[test]
    fn every_figure_is_a_committed_claim() {
        let mut ids = std::collections::HashSet::new();
        for e in std::fs::read_dir("experiments").unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            let spec: toml::Value = toml::from_str(&text).unwrap();
            for c in spec
                .get("claim")
                .and_then(|c| c.as_array())
                .into_iter()
                .flatten()
            {
                ids.insert(c["id"].as_str().unwrap().to_string());
            }
        }
        let reference = std::fs::read_to_string("reports/claims.csv").unwrap();
        for f in ALL {
            assert!(
                ids.contains(f.claim),
                "{}: no committed study declares it",
                f.claim
            );
            assert!(
                reference
                    .lines()
                    .any(|l| l.starts_with(&format!("{},", f.claim))),
                "{}: not in reports/claims.csv",
                f.claim
            );
        }
    }
}
