// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: dynamic, because
// {{WHY}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}}; const redist::directive::Target redistc_to = {{TO_INIT}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{BODY}}
}
#line {{NEXT_LINE}} {{INPUT}}
