// redistc: assign {{DST}} = {{SRC}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: static in the
// instantiations of {{FUNCTION}} below, dynamic in any other
#line {{LINE}} {{INPUT}}
{ auto &redistc_dst = {{DST}}; const auto &redistc_src = {{SRC}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BRANCHES}}
  } else {
    // Any other instantiation: the runtime, because {{WHY}}.
{{BODY}}
  }
}
#line {{NEXT_LINE}} {{INPUT}}
