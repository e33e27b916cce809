"""What the three-row games, OFC and Chinese poker, share: the `Board` of 3 + 5 + 5 cards, the rule
thresholds and their lookup tables, the presets mixin of their `Rules`, the exact best-setting
search, and the compiled kernel (`_kernel`) that evaluates, scores and solves boards under a
game's rule tables. Private: the games' packages (handrank.ofc, handrank.chinese) are the API."""
