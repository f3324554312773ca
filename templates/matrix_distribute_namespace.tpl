// redistc: distribute {{VAR}}[{{ROWS_TEXT}}][{{COLS_TEXT}}]({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current layout (made on first use) and
// communicator; {{VAR}} holds this rank's local matrix column-major, leading
// dimension max(1, local rows)
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static redist::Layout2D &{{DIST_NAME}}() { static redist::Layout2D redistc_current = {{LAYOUT_INIT}}; return redistc_current; } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return {{COMM}}; }
#line {{NEXT_LINE}} {{INPUT}}
