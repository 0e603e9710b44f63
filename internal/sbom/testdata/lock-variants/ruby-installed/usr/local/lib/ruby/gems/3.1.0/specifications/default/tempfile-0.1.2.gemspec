# -*- encoding: utf-8 -*-
# stub: tempfile 0.1.2 ruby lib

Gem::Specification.new do |s|
  s.name = "tempfile".freeze
  s.version = "0.1.2"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/tempfile", "source_code_uri" => "https://github.com/ruby/tempfile" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "A utility class for managing temporary files.".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["tempfile.rb".freeze]
  s.homepage = "https://github.com/ruby/tempfile".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.5.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "A utility class for managing temporary files.".freeze
end
