//! The chapter's Python BloomFilter, reproduced exactly. Expected values come
//! from running the chapter's class verbatim under Python 3.11 with mmh3 5.3.1.

use sketchlab::structures::bloom::reference::ChapterBloom;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn sizing_and_byte_image_match_python() {
    // b = BloomFilter(20, 0.05); b.m, b.k == 125, 4
    let mut b = ChapterBloom::new(20, 0.05).unwrap();
    assert_eq!((b.m(), b.k()), (125, 4));
    for w in ["apple", "banana", "cherry", "/login", "/logout", "héllo"] {
        b.add(w);
    }
    // bytes(b.bits).hex()
    assert_eq!(hex(b.bytes()), "481284440401049c0012008250200000");
    let pos = |w: &str| b.positions(w.as_bytes()).collect::<Vec<_>>();
    assert_eq!(pos("apple"), vec![58, 3, 73, 18]);
    assert_eq!(pos("grape"), vec![20, 18, 16, 14]);
    assert_eq!(pos("mango"), vec![78, 13, 73, 8]);
    assert!(!b.contains("grape") && !b.contains("mango") && !b.contains("zzz"));
    assert!(b.contains("héllo") && b.contains("/logout"));
}

#[test]
fn positions_for_a_larger_filter_match_python() {
    // BloomFilter(1000, 0.01): m = 9586, k = 7; list(b._positions("key-17"))
    let b = ChapterBloom::new(1000, 0.01).unwrap();
    assert_eq!((b.m(), b.k()), (9586, 7));
    assert_eq!(
        b.positions(b"key-17").collect::<Vec<_>>(),
        vec![5547, 2866, 185, 7090, 4409, 1728, 8633]
    );
    // BloomFilter(7, 0.3): Python's round() gives k = 2, m = 18
    let c = ChapterBloom::new(7, 0.3).unwrap();
    assert_eq!((c.m(), c.k()), (18, 2));
}

#[test]
fn the_chapter_diagram_is_not_what_its_code_produces() {
    // m = 12, k = 3 after "apple", "banana": Python gives bytes 0a0f, i.e.
    // bits {1, 3, 8, 9, 10, 11}, not the chapter's {0, 2, 5, 7, 9, 11}.
    let mut b = ChapterBloom::with_mk(12, 3).unwrap();
    b.add("apple");
    b.add("banana");
    assert_eq!(hex(b.bytes()), "0a0f");
    assert_eq!(b.ones(), vec![1, 3, 8, 9, 10, 11]);
    assert_eq!(b.positions(b"grape").collect::<Vec<_>>(), vec![1, 3, 5]);
    assert!(
        !b.contains("grape"),
        "with the book's own hash, grape is not a false positive"
    );
    // The essay's keys in 16 bits, k = 3: /login probes bit 6 twice.
    let e = ChapterBloom::with_mk(16, 3).unwrap();
    assert_eq!(e.positions(b"/login").collect::<Vec<_>>(), vec![6, 14, 6]);
    assert_eq!(e.positions(b"/signup").collect::<Vec<_>>(), vec![3, 5, 7]);
}

#[test]
fn rejects_what_python_would_reject() {
    assert!(ChapterBloom::new(0, 0.01).is_err());
    assert!(ChapterBloom::new(10, 0.0).is_err());
    assert!(ChapterBloom::new(10, 1.0).is_err());
    assert!(ChapterBloom::with_mk(0, 3).is_err());
}
