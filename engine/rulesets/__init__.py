"""One module per rule set; each has `build(players, options) -> RuleSet`."""
