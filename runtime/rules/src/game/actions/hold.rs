//! Hold: an action that does nothing by itself. A ruleset's own action type that is a `hold`
//! (`does: hold`) has its effect in what it gives (`gives:`, a model state the model gains as any
//! action of that type resolves): Sythopian Wars' DEFEND (002 L262-264).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::game::{Controller, Engine};

pub struct Hold;

impl ActionKind for Hold {
    fn id(&self) -> ActionWord {
        ActionWord::Hold
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn resolve(&self, _: &mut Engine, _: usize, _: &Action, _: &mut dyn Controller) -> Result<(), ActionError> {
        Ok(())
    }
}

impl Action {
    pub fn hold() -> Action {
        Action::new(Hold.name())
    }
}
