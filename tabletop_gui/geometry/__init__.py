"""Geometry of the battlefield: numpy/shapely only, no rules and no Qt.

Entry point: ``board_geometry.BoardGeometry(board)``, one per document revision (held by
``scenario.snapshot.Snapshot``, built on first use). The modules, one concept each:

- ``board``, ``facts``: the plain inputs (Board, Body, Terrain...) and the result values.
- ``outline``, ``outline_distance``: base outlines (circle, ellipse, rectangle by facing),
  polygons, exact point-to-outline distances.
- ``bodies``: every body as arrays (elevations, platforms stood on); ``gaps``: the gaps
  between bases (``oval_gap`` refines those of ovals).
- ``terrain``: obstacles and platforms as prisms, with edge arrays for numpy clipping.
- ``segments``: does a 3D segment pass through a prism (exact, grazing is not blocking).
- ``rings``: segments against polygons with many edges or not convex, through an index of
  edge chains (only the edges near a segment are tested).
- ``corridor``: which terrain can meet a pair's sight lines (the filter before exact tests).
- ``sight``: line of sight by sample lines between model prisms.
- ``cover``: cover by parameters (``CoverRule``: obstacles crossed, platforms);
  ``facing_cover``: the cover of a unit's facing, with ``fan`` telling from the geometry
  which of a fan of sample lines a convex piece certainly or possibly hides (only the
  lines in between are tested one by one).
- ``unit_arcs``, ``formation``: arcs, facings, contact, ranks and files of a rank-and-file
  formation.
- ``grid``: square and hex spaces, distances, Zones of Control.
- ``pairs``: facts of every opposing pair at once, updated row by row during a drag.
"""
