{{BRANCHES}}
  } else {
    // Any other instantiation: the runtime, because {{WHY}}.
{{BODY}}
  }
