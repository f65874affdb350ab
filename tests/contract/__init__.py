"""The contract kit: the promises every ruleset keeps, checked through the protocol alone."""
