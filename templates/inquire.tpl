// redistc: inquire {{VAR}} into {{NAME}}: {{VAR}}'s distribution, extent and
// communicator as of here (redist/runtime/LocalPart.h)
#line {{LINE}} {{INPUT}}
const redist::ArrayInfo {{NAME}}({{DIST}}, {{EXTENT}}, {{COMM}});
#line {{NEXT_LINE}} {{INPUT}}
