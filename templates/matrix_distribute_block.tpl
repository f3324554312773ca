// redistc: distribute {{VAR}}[{{ROWS_TEXT}}][{{COLS_TEXT}}]({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current layout and communicator, whose values
// the ranks agree on here; {{VAR}} holds this rank's local matrix
// column-major, leading dimension max(1, local rows)
#line {{LINE}} {{INPUT}}
[[maybe_unused]] redist::Layout2D {{DIST_NAME}} = {{LAYOUT_INIT}}; [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = {{COMM}};
#line {{NEXT_LINE}} {{INPUT}}
