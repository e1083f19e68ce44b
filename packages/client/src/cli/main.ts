process.stderr.write("fy: not built yet\n");
process.exit(1);
