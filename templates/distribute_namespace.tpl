// redistc: distribute {{VAR}}[{{EXTENT_TEXT}}]({{FORMAT}}) onto {{ARRANGEMENT}}:
// the descriptor of {{VAR}}'s current distribution (made on first use),
// extent and communicator
#line {{LINE}} {{INPUT}}
[[maybe_unused]] static redist::Distribution &{{DIST_NAME}}() { static redist::Distribution redistc_current = {{DIST_INIT}}; return redistc_current; } [[maybe_unused]] static std::int64_t {{EXTENT_NAME}}() { return static_cast<std::int64_t>({{EXTENT_TEXT}}); } [[maybe_unused]] static MPI_Comm {{COMM_NAME}}() { return {{COMM}}; }
#line {{NEXT_LINE}} {{INPUT}}
