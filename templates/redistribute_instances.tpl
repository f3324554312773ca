// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: static in
// the instantiations of {{FUNCTION}} below, dynamic in any other
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}};{{USES}}
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BRANCHES}}
  } else {
    // Any other instantiation: the runtime, because {{WHY}}.
    const redist::directive::Target redistc_to = {{TO_INIT}};
{{BODY}}
  }
}
#line {{NEXT_LINE}} {{INPUT}}
