//! Strike packages called from a side's strike pool (001 Appendix D): the pool its force was
//! built with, spent by the `call-strike` action (`actions::call_strike`). Strikes act at no
//! moment of their own: the action places them, and a strike that flies in as a model is a
//! missile (`missiles`).

use super::Feature;
use crate::game::*;

kept! {
    /// What strikes keep: per side, the threat value left in its strike pool for each strike package.
    pub struct Kept {
        pub pools: Vec<std::collections::BTreeMap<cav_format::StrikePackage, u32>>,
    }
}

/// Strike packages called from a strike pool.
pub(crate) static STRIKES: Feature = Feature { configured_by, ..Feature::new(cav_format::vocab::Feature::Strikes) };

fn configured_by(rules: &Rules) -> Option<&'static str> {
    (!rules.strikes.is_empty()).then_some("a `strike` document")
}
