"""Words for the Dice Expansion (engine/rules/dice/), one file per rule module."""
