from tests.exports.bare import bare_python  # noqa: F401  (the fixture)
