// redistc: distribute {{VAR}}{{EXTENTS}}({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current layout and communicator, whose values
// the ranks agree on here; {{VAR}} holds this rank's local part {{STORAGE}}
#line {{LINE}} {{INPUT}}
[[maybe_unused]] redist::ArrayLayout {{DIST_NAME}} = {{LAYOUT_INIT}}; [[maybe_unused]] const MPI_Comm {{COMM_NAME}} = {{COMM}};
#line {{NEXT_LINE}} {{INPUT}}
