//! What a solve returns, as plain data: [`Design`](design::Design) with its
//! [`Certificate`](certificate::Certificate), the sample [`Guarantee`](guarantee::Guarantee),
//! a loss design's dual, and the serialised record. The certificate's checks stand
//! beside the data they check; no design algorithm lives here.

pub(crate) mod certificate;
pub(crate) mod claims;
pub(crate) mod design;
pub(crate) mod estimation;
pub(crate) mod guarantee;
pub(crate) mod literature;
pub(crate) mod loss;
pub(crate) mod provenance;
pub(crate) mod public;
pub(crate) mod record;
pub(crate) mod route;
pub(crate) mod simulated;
