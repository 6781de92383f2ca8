//! Tests of `prior`.

use pmldesign_model::prior::*;

#[test]
fn validates() {
    assert!(Prior::new(vec![0.4, 0.2, 0.2, 0.2]).is_ok());
    assert!(Prior::new(vec![0.5, 0.6]).is_err());
    assert!(Prior::new(vec![1.0, 0.0]).is_err());
    assert!(Prior::new(vec![1.2, -0.2]).is_err());
    assert!(Prior::new(vec![f64::NAN, 1.0]).is_err());
    assert!(Prior::new(vec![1.0]).is_err());
    let p = Prior::normalised(vec![2.0, 6.0]).unwrap();
    assert_eq!(p.masses().to_vec(), vec![0.25, 0.75]);
    let msg = Prior::new(vec![0.5, 0.0, 0.5]).unwrap_err().to_string();
    assert!(msg.contains("prior[1]") && msg.contains("> 0"), "{msg}");
}

#[test]
fn serde_round_trip_validates() {
    let p: Prior = serde_json::from_str("[0.25,0.75]").unwrap();
    assert_eq!(serde_json::to_string(&p).unwrap(), "[0.25,0.75]");
    assert!(serde_json::from_str::<Prior>("[0.25,0.7]").is_err());
}
