//! The design routes: utilities over a cone's rays, the inner/outer bracket past
//! \[E\] Prop 2, settling LP weights into a private mechanism, losses by column
//! generation or the direct LP, losses under the other notions, intersections
//! of constraints, and designs from samples.

pub(crate) mod blocks;
pub(crate) mod estimation;
pub(crate) mod inner_outer;
pub(crate) mod intersection;
pub(crate) mod loss;
pub(crate) mod loss_colgen;
pub(crate) mod loss_direct;
pub(crate) mod loss_ipm;
pub(crate) mod loss_labels;
pub(crate) mod mirror;
pub(crate) mod notion_loss;
pub(crate) mod notion_lp;
pub(crate) mod optimum;
pub(crate) mod sample;
pub(crate) mod sampled_start;
pub(crate) mod settle;
pub(crate) mod simplicial;
pub(crate) mod systematic;
pub(crate) mod utility;
