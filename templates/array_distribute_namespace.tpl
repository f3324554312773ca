// redistc: distribute {{VAR}}{{EXTENTS}}({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current layout (made on first use) and
// communicator; {{VAR}} holds this rank's local part {{STORAGE}}
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static redist::ArrayLayout &{{DIST_NAME}}() { static redist::ArrayLayout redistc_current = {{LAYOUT_INIT}}; return redistc_current; } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return {{COMM}}; }
#line {{NEXT_LINE}} {{INPUT}}
