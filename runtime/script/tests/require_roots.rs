//! `require` reads modules only inside the pack's script roots: a module linked (or under a
//! linked directory) to a file outside the root is refused, whatever its name.

use std::os::unix::fs::symlink;

use cav_script::sandbox::{Limits, Sandbox, find_module, locate_module};

#[test]
fn symlinked_module_out_of_the_root_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.luau"), "return { secret = 'SECRET-42' }\n").unwrap();
    std::fs::create_dir_all(outside.path().join("dir")).unwrap();
    std::fs::write(outside.path().join("dir/m.luau"), "return { secret = 'SECRET-43' }\n").unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("good.luau"), "return { ok = 1 }\n").unwrap();
    symlink(outside.path().join("secret.luau"), root.path().join("evil.luau")).unwrap();
    symlink(outside.path().join("dir"), root.path().join("sub")).unwrap();
    symlink("good.luau", root.path().join("alias.luau")).unwrap();
    let roots = vec![root.path().to_owned()];

    assert!(find_module(&roots, "evil").is_none());
    assert!(find_module(&roots, "sub.m").is_none());
    assert!(locate_module(&roots, "evil").unwrap_err().contains("outside"));
    // A link that stays in the root is followed, to the real file.
    let alias = find_module(&roots, "alias").unwrap();
    assert_eq!(alias, root.path().join("good.luau").canonicalize().unwrap());

    let sb = Sandbox::new(Limits::default(), roots).unwrap();
    for name in ["evil", "sub.m"] {
        let err = sb.run(&format!("return require('{name}').secret"), "t").unwrap_err().to_string();
        assert!(err.contains("outside the pack's script root"), "{err}");
        assert!(!err.contains("SECRET"), "{err}");
    }
    assert_eq!(sb.run("return require('alias').ok", "t").unwrap(), ["1"]);
}
