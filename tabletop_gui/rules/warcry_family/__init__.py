"""What the three Warcry-engine rulesets share (warcry, fight-vs-defense, mordheim-warcry).

Not a ruleset itself (it has no ``info.py`` and no ``RULESET``): the hit tables, weapon
profiles, the target rules written once against ``BoardGeometry``, and a base class that
turns an attack plan into odds, a resolution and conditioned odds. Each ruleset's
``engine`` module supplies its own checks, modifiers and table.
"""
